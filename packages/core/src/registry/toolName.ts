/** Tool names per MCP 2025-11-25 (SEP-986): 1-128 characters of A-Z a-z 0-9 _ . - */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * The default tool name for a method: snake_case.
 * `getWeather` -> `get_weather`, `fetchHTMLPage` -> `fetch_html_page`, `v2Search` -> `v2_search`.
 */
export function defaultToolName(methodName: string): string {
  return methodName
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}
