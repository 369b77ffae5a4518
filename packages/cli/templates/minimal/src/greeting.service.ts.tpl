import { Service } from 'typedi';

export const LANGUAGES = ['en', 'fr', 'ja'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The business logic, kept out of the tool class so it can be injected and replaced in tests. */
@Service()
export class GreetingService {
  private readonly templates: Record<Language, (name: string) => string> = {
    en: (name) => `Hello, ${name}!`,
    fr: (name) => `Bonjour, ${name} !`,
    ja: (name) => `こんにちは、${name}さん!`,
  };

  greet(name: string, language: Language): string {
    return this.templates[language](name);
  }
}
