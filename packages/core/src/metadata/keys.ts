/** Reflect metadata keys under which decorators record their arguments (own metadata of the class). */
export const TOOLS_KEY = 'toolwright:tools';
export const PARAMS_KEY = 'toolwright:params';
export const PROPERTY_KEY = 'toolwright:property';
export const RESOURCES_KEY = 'toolwright:resources';
export const PROMPTS_KEY = 'toolwright:prompts';
export const TRANSFORMS_KEY = 'toolwright:transforms';
