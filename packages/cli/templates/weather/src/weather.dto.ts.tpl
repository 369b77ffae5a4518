import { IsIn, IsNumber, IsString, Property } from '@toolwright/core/dto';

/** What get_weather returns: advertised as its outputSchema, sent as structuredContent. */
export class WeatherReport {
  @Property({ description: 'The city, as asked for.' })
  @IsString()
  location!: string;

  @Property({ description: 'Temperature in degrees Celsius.' })
  @IsNumber()
  temperature!: number;

  @Property({ description: "A short description, e.g. 'Sunny'." })
  @IsString()
  conditions!: string;

  @IsIn(['celsius'])
  unit!: 'celsius';
}
