/**
 * The SDK's Skills extension (SEP-2640) catalog, as Toolwright's `skills()` uses it: the SDK
 * walks the folder, parses and checks every `SKILL.md`, and publishes each skill's files with
 * their `sha256:` digests and sizes. Toolwright reads the folder through its own adapter
 * (`skillFolderFiles`), handed to `SkillCatalog.load`. Loaded only by apps that serve skills.
 */
export { SkillCatalog, SkillCatalogError, type Skill, type SkillWarning, DIRECTORY_MIME_TYPE, SKILL_LIMITS } from '@modelcontextprotocol/server/ext/skills';
