// #region discriminator
import { Allow, IsDefined, IsIn, IsNumber, Property, Type, ValidateNested } from '@toolwright/core/dto';

export class Circle {
  @IsNumber() radius!: number;
}

export class Square {
  @IsNumber() side!: number;
}

const SHAPES = {
  discriminator: {
    property: 'kind',
    subTypes: [
      { name: 'circle', value: Circle },
      { name: 'square', value: Square },
    ],
  },
};

export class DrawInput {
  @ValidateNested()
  @Type(() => Object, SHAPES)
  shape!: Circle | Square;

  @ValidateNested({ each: true })
  @Type(() => Object, SHAPES)
  more!: (Circle | Square)[];

  @Property({ schema: { anyOf: [{ type: 'string', maxLength: 20 }, { type: 'number' }] } })
  @Allow()
  @IsDefined()
  label!: string | number;

  @IsIn(['svg', 'png'])
  format!: 'svg' | 'png';
}
// #endregion discriminator
