/**
 * Replaces `{{key}}` placeholders. An unknown key is a bug in the template, so it throws
 * rather than leaving `{{typo}}` in a user's source.
 */
export function renderTemplate(source: string, values: Readonly<Record<string, string>>, where: string): string {
  return source.replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`Template ${where} uses {{${key}}}, which is not one of: ${Object.keys(values).join(', ')}.`);
    return value;
  });
}
