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
    // An identifier may not start with a digit: `3d-printer` -> create_3dPrinterApp would be invalid.
    appFactory: `create${/^[0-9]/.test(pascal) ? '_' : ''}${pascal}App`,
  };
}
