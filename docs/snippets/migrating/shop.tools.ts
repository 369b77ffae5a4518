// #region toolwright
import { Param, Tool, ToolError } from '@toolwright/core';
import { Service } from 'typedi';

@Service()
export class Stock {
  private readonly counts = new Map([['apple', 3]]); // a Map, so an item named 'constructor' finds no count
  count(item: string): number | undefined {
    return this.counts.get(item);
  }
}

@Service()
export class ShopTools {
  constructor(private readonly stock: Stock) {}

  @Tool({ description: 'How many of an item are in stock.' })
  checkStock(@Param('item', { minLength: 1, description: 'The item name' }) item: string) {
    const count = this.stock.count(item);
    if (count === undefined) throw new ToolError(`Unknown item '${item}'.`);
    return count;
  }
}
// createApp({ name: 'shop', version: '1.0.0', tools: [ShopTools] }) builds a server per connection.
// #endregion toolwright
