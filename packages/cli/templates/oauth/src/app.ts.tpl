import { createOAuthServer } from '@toolwright/oauth';
import { createApp, type App } from '@toolwright/server';
import { NotesTools } from './notes.tools';
import { signInFromEnv } from './signIn';

/**
 * The app, with its OAuth authorization server when `issuer` is given (its public URL, e.g.
 * `https://mcp.example.com`): `createApp({ oauth })` serves the sign-in endpoints beside /mcp
 * and requires its tokens there. Without `issuer` (stdio), no sign-in.
 */
export async function {{appFactory}}(issuer?: string, env: NodeJS.ProcessEnv = process.env): Promise<App> {
  const oauth =
    issuer === undefined
      ? undefined
      : await createOAuthServer({
          issuer,
          resource: `${issuer}/mcp`,
          scopes: ['notes:read', 'notes:write'],
          // 32+ characters, the same on every instance: refresh tokens and upstream tokens outlive a restart.
          ...(env.OAUTH_SECRET && { secret: env.OAUTH_SECRET }),
          ...signInFromEnv(env, issuer),
        });
  return createApp({
    name: '{{serverName}}',
    version: '0.1.0',
    title: '{{title}}',
    instructions: 'Keep notes for the signed-in user: list_notes before adding, so that you do not add a note twice.',
    tools: [NotesTools],
    ...(oauth && { oauth }),
  });
}
