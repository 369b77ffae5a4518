import { Param, Prompt, Resource } from '@toolwright/core';

const CITIES = ['Paris', 'Porto', 'Prague', 'Tokyo'];

// #region complete
export class TravelPrompts {
  @Prompt({ description: 'Plan a trip' })
  plan(
    @Param('city', { complete: (typed) => CITIES.filter((c) => c.toLowerCase().startsWith(typed.toLowerCase())) }) city: string,
    @Param('mode', { enum: ['train', 'plane'] }) mode: string, // completes from its values
    @Param('hotel', { complete: (typed, { arguments: chosen }) => [`${chosen.city ?? 'Any'} Grand`, `${chosen.city ?? 'Any'} Inn`] }) hotel: string,
  ) {
    return `Plan a ${mode} trip to ${city}, staying at ${hotel}.`;
  }

  @Resource('weather://{city}/today')
  weather(@Param('city', { complete: (typed) => CITIES.filter((c) => c.startsWith(typed)) }) city: string) {
    return `Sunny in ${city}`;
  }
}
// #endregion complete
