import { Type as TypeFromClassTransformer } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsInt, IsOptional, IsString, Max, Min, MinLength, Property, Type, ValidateNested } from '@toolwright/core/dto';

/** One card of a board: a nested DTO, built by `plainToInstance` through `@Type`. */
export class Card {
  @Property({ description: 'What the card says.' })
  @IsString()
  @MinLength(1)
  title!: string;

  @Property({ description: 'Story points, 1 to 13.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(13)
  points?: number;

  /** A method: only a real Card instance has it, so a call that reaches it proves the nesting was built. */
  label(): string {
    return this.points === undefined ? this.title : `${this.title} (${this.points})`;
  }
}

/** Who owns the board: a single nested DTO. */
export class Owner {
  @Property({ description: 'The owner’s name.' })
  @IsString()
  @MinLength(1)
  name!: string;
}

/**
 * The input of `plan`: nested DTOs (an object and an array of objects) described only by
 * `@Type(() => ...)` and `@ValidateNested()`. These must build and validate the same way on
 * every runtime, bundled for a Worker or not. `@Type` comes from `@toolwright/core/dto` or from
 * class-transformer itself: both record in the same place (in a Worker bundle too, see
 * scripts/bundleWorker.mjs).
 */
export class BoardInput {
  @Property({ description: 'Whose board it is.' })
  @ValidateNested()
  @TypeFromClassTransformer(() => Owner)
  owner!: Owner;

  @Property({ description: 'The cards, in order.' })
  @ValidateNested({ each: true })
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @Type(() => Card)
  cards!: Card[];
}
