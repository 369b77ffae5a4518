import { Param, Tool, ToolError } from '@toolwright/core';
import { Service } from 'typedi';
import { GreetingService, LANGUAGES, type Language } from './greeting.service';

@Service()
export class GreetingTools {
  // typedi builds GreetingService and passes it in: tools stay thin, logic stays testable.
  constructor(private readonly greetings: GreetingService) {}

  @Tool({
    description: 'Greet a person by name. Use when the user asks to say hello to someone.',
    annotations: { readOnlyHint: true, openWorldHint: false },
  })
  greet(
    @Param('name', { description: "The person's name, e.g. 'Ada'", minLength: 1 }) name: string,
    @Param('language', { enum: LANGUAGES, default: 'en', description: 'Language of the greeting: en, fr or ja' }) language: Language,
  ): string {
    // A ToolError becomes an `isError` result the model can read and act on.
    if (name.trim() === '') throw new ToolError('The name is blank: pass the name of the person to greet.');
    return this.greetings.greet(name.trim(), language);
  }
}
