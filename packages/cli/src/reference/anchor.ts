/** The id GitHub and VitePress give a Markdown heading: lowercase, punctuation dropped, spaces as '-'. */
export function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');
}
