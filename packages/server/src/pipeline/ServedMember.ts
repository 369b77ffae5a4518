import type { AccessRules, Class, MemberKind, MemberPipeline, ToolAnnotations } from '@toolwright/core';

/** What the call pipeline needs of a tool, resource, template or prompt definition. */
export interface ServedMember {
  readonly name: string;
  readonly target: Class;
  readonly methodName: string;
  readonly usesContext: boolean;
  readonly access?: AccessRules;
  readonly pipeline?: MemberPipeline;
  readonly timeoutMs?: number;
}

/** A served member with what its kind adds: the name guards and middleware see, and its annotations. */
export interface MemberRef {
  readonly kind: MemberKind;
  readonly member: ServedMember;
  /** The tool or prompt name; a resource's URI or URI template. */
  readonly name: string;
  readonly annotations?: ToolAnnotations;
}
