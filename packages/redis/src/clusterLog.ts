/** Writes one log line of the cluster: a JSON object with `time`, `level`, `msg` and `fields`. */
export type ClusterLog = (level: 'info' | 'warn' | 'error', msg: string, fields?: Readonly<Record<string, string>>) => void;

/** The cluster's log, one JSON object per line, through `write` (`RedisClusterOptions.logWrite`). */
export function clusterLog(write: (line: string) => void): ClusterLog {
  return (level, msg, fields) => write(`${JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields })}\n`);
}
