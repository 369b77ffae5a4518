/** The names a template needs, all derived from the npm package name. */
export interface ProjectNames {
  /** The npm package name, e.g. `@acme/weather-server`. */
  readonly packageName: string;
  /** The MCP server name (serverInfo.name) and client config key: the unscoped package name. */
  readonly serverName: string;
  /** A display title, e.g. `Weather Server`. */
  readonly title: string;
  /** The exported app factory, e.g. `createWeatherServerApp`. */
  readonly appFactory: string;
}

export function projectNames(packageName: string): ProjectNames {
  const serverName = packageName.replace(/^@[^/]+\//, '');
  const words = serverName.split(/[^a-zA-Z0-9]+/).filter(Boolean);
  const capitalized = words.map((w) => w[0].toUpperCase() + w.slice(1));
  const pascal = capitalized.join('');
  return {
    packageName,
    serverName,
    title: capitalized.join(' '),
    appFactory: appFactoryName(pascal),
  };
}

/**
 * `create` + the name + `App`, without saying App twice (`notes-app` -> createNotesApp) and
 * without taking the name of Toolwright's own `createApp` (`app` -> createMcpApp). An identifier
 * may not start with a digit: `3d-printer` -> create_3dPrinterApp.
 */
function appFactoryName(pascal: string): string {
  if (pascal === 'App' || pascal === '') return 'createMcpApp';
  const stem = /^[0-9]/.test(pascal) ? `_${pascal}` : pascal;
  return stem.endsWith('App') ? `create${stem}` : `create${stem}App`;
}
