/**
 * The SDK's Skills extension (SEP-2640) catalog, as Toolwright's `skills()` uses it: the SDK
 * walks the folder, parses and checks every `SKILL.md`, and publishes each skill's files with
 * their `sha256:` digests and sizes. Loaded only by apps that serve skills.
 */
export { SkillCatalogError, type Skill, type SkillCatalog, type SkillWarning, DIRECTORY_MIME_TYPE, SKILL_LIMITS } from '@modelcontextprotocol/server/ext/skills';
export { loadSkills, nodeSkillFiles } from '@modelcontextprotocol/server/ext/skills/node';
