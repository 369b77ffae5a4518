import { Param, Tool, ToolError } from '@toolwright/core';

// #region tool-error
export class AccountTools {
  private readonly balances = new Map([['alice', 120]]);

  @Tool({ description: 'Withdraw money from an account.' })
  withdraw(@Param('account') account: string, @Param('amount', { exclusiveMinimum: 0 }) amount: number) {
    const balance = this.balances.get(account);
    if (balance === undefined) throw new ToolError(`No account '${account}'. Ask the user for the account name.`);
    if (amount > balance) throw new ToolError(`Insufficient funds: the balance is ${balance}, less than ${amount}.`);
    this.balances.set(account, balance - amount);
    return `Withdrew ${amount}; the balance is now ${balance - amount}.`;
  }

  @Tool({ description: 'Close an account.' })
  close(@Param('account') account: string) {
    // A bug, not a condition the model can fix: the client gets a generic message,
    // the stack trace goes to stderr.
    throw new TypeError(`Cannot read properties of undefined (reading '${account}')`);
  }
}
// #endregion tool-error
