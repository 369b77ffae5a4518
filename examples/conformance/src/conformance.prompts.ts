import { embeddedResource, image, Param, Prompt, userMessage } from '@toolwright/core';
import { PNG } from './media';

const ARG1_SUGGESTIONS = ['testValue1', 'test', 'testing', 'other'];

/** Every prompt fixture of the conformance suite. */
export class ConformancePrompts {
  @Prompt({ name: 'test_simple_prompt', description: 'A prompt without arguments.' })
  simple() {
    return 'This is a simple prompt for testing.';
  }

  @Prompt({ name: 'test_prompt_with_arguments', description: 'A prompt with two required arguments.' })
  withArguments(
    @Param('arg1', { description: 'The first argument', complete: (typed) => ARG1_SUGGESTIONS.filter((s) => s.startsWith(typed)) }) arg1: string,
    @Param('arg2', { description: 'The second argument' }) arg2: string,
  ) {
    return `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`;
  }

  @Prompt({ name: 'test_prompt_with_embedded_resource', description: 'A prompt that embeds a resource.' })
  withEmbeddedResource(@Param('resourceUri', { description: 'The URI to embed' }) resourceUri: string) {
    return [userMessage(embeddedResource({ uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' })), 'Please process the embedded resource above.'];
  }

  @Prompt({ name: 'test_prompt_with_image', description: 'A prompt with an image.' })
  withImage() {
    return [userMessage(image(PNG, 'image/png')), 'Please analyze the image above.'];
  }
}
