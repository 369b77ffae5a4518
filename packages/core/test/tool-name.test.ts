import { defaultToolName } from '@toolwright/core/internal';

describe('defaultToolName', () => {
  it.each([
    ['getWeather', 'get_weather'],
    ['calculate', 'calculate'],
    ['fetchHTMLPage', 'fetch_html_page'],
    ['getURL', 'get_url'],
    ['v2Search', 'v2_search'],
    ['already_snake', 'already_snake'],
  ])('%s -> %s', (method, name) => expect(defaultToolName(method)).toBe(name));
});
