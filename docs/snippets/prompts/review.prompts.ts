import { assistantMessage, embeddedResource, image, Param, Prompt, userMessage } from '@toolwright/core';

// #region basic
export class ReviewPrompts {
  @Prompt({ description: 'Ask for a code review' })
  review(@Param('code', { description: 'The code to review' }) code: string, @Param('strictness', { enum: ['gentle', 'strict'], default: 'gentle' }) strictness: string) {
    return `Please give a ${strictness} review of this code:\n\n${code}`;
  }
  // #endregion basic

  // #region rich
  @Prompt({ description: 'Compare a file with a screenshot' })
  compare(@Param('uri', { description: 'The file to compare' }) uri: string, @Param('lines', { integer: true, minimum: 1 }) lines: number) {
    return [
      userMessage(embeddedResource({ uri, mimeType: 'text/plain', text: `(first ${lines} lines of ${uri})` })),
      userMessage(image(Buffer.from('iVBORw0KGgo=', 'base64'), 'image/png')),
      assistantMessage('I see the file and the screenshot.'),
      'Where do they disagree?',
    ];
  }
  // #endregion rich
}
