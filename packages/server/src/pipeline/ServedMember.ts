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
  /** The limits the app that declares the member sets, when another app serves it (a mount): they win over the serving app's. */
  readonly limits?: MemberLimits;
}

/** The per-app limits a mounted app's members keep: those its options set (what it leaves out, the serving app's fill in). */
export interface MemberLimits {
  readonly guardTimeoutMs?: number;
  readonly maxLogLength?: number;
  readonly maxUriLength?: number;
}

/** A served member with what its kind adds: the name guards and middleware see, and its annotations. */
export interface MemberRef {
  readonly kind: MemberKind;
  readonly member: ServedMember;
  /** The tool or prompt name; a resource's URI or URI template. */
  readonly name: string;
  readonly annotations?: ToolAnnotations;
}
