import { Ctx, Param, Tool, type ToolContext } from '@toolwright/core';
import { IsIn, IsInt, Min } from '@toolwright/core/dto';

export class Seats {
  @IsIn(['economy', 'business']) cabin!: string;
  @IsInt() @Min(1) count!: number;
}

/** Books trips; stands in for a real booking service. */
export class Bookings {
  readonly made: string[] = [];
  book(to: string, seats: Seats, note: string): string {
    this.made.push(`${to}: ${seats.count} ${seats.cabin} (${note})`);
    return `Booked ${seats.count} ${seats.cabin} seat(s) to ${to}. ${note}`;
  }
}

// #region tool
export class TripTools {
  constructor(private readonly bookings = new Bookings()) {}

  @Tool({ description: 'Book a trip: asks the user for seats and the client model for a travel tip.' })
  async bookTrip(@Param('to') to: string, @Ctx() ctx: ToolContext) {
    // Ask first: on a 2026-07-28 request this method runs again from the top once the
    // client has answered, and the questions already answered return at once.
    const [seats, tip] = await Promise.all([ctx.elicit(`Which seats to ${to}?`, Seats), ctx.sample(`One short travel tip for ${to}.`, { maxTokens: 60 })]);
    if (seats.action !== 'accept') return `Booking ${seats.action}ed.`;
    // Act last: this line runs once, whatever the era.
    return this.bookings.book(to, seats.content, tip.content.type === 'text' ? tip.content.text : '');
  }
}
// #endregion tool
