import { FromCall, Param, Scoped, Tool, type AuthInfo } from '@toolwright/core';
import { Service } from 'typedi';

// #region scopes
@Service()
export class Database {
  query(sql: string, tenant: string) {
    return `${sql} for ${tenant}`;
  }
}

/** One per call: built for the request, told who calls, disposed after the answer. */
@Scoped('request')
export class TenantQueries {
  readonly closed: string[] = [];
  constructor(
    private readonly db: Database, // app lifetime: from the app's container
    @FromCall('caller') private readonly caller: AuthInfo | undefined,
  ) {}

  orders() {
    return this.db.query('SELECT * FROM orders', String(this.caller?.extra?.tenant ?? 'public'));
  }

  dispose() {
    // Called once the call has answered: release a connection, commit a transaction.
  }
}

/** The tool class injects a request-scoped service, so it is request-scoped too. */
@Scoped('request')
export class OrderTools {
  constructor(private readonly queries: TenantQueries) {}

  @Tool({ description: "List the caller's orders." })
  listOrders() {
    return this.queries.orders();
  }
}
// #endregion scopes

// #region session
/** One per 2025-era session (an HTTP session, a stdio connection); disposed when it ends. */
@Scoped('session')
export class Cart {
  readonly items: string[] = [];
}

@Scoped('request')
export class CartTools {
  constructor(private readonly cart: Cart) {}

  @Tool({ description: 'Add an item to the cart of this session.' })
  add(@Param('item') item: string) {
    this.cart.items.push(item);
    return this.cart.items.join(', ');
  }
}
// #endregion session
