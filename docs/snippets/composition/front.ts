// #region mount
import 'reflect-metadata';
import { Param, Prompt, Resource, Tool, type MemberCall, type Next } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';

/** The billing team's tools: an app of their own, served alone or mounted. */
export class InvoiceTools {
  @Tool({ description: 'Create an invoice for a customer.' })
  createInvoice(@Param('customer') customer: string) {
    return { invoice: `INV-${customer}` };
  }

  @Resource('billing://invoices/{id}', { description: 'One invoice.' })
  invoice(@Param('id') id: string) {
    return `Invoice ${id}: paid`;
  }

  @Prompt({ description: 'Write a payment reminder.' })
  reminder(@Param('customer') customer: string) {
    return `Write a polite payment reminder for ${customer}.`;
  }
}

export class SupportTools {
  @Tool({ description: 'Open a support ticket.' })
  openTicket(@Param('subject') subject: string) {
    return `Ticket opened: ${subject}`;
  }
}

/** Runs around every call of the billing app, mounted or not. */
export const audit = (log: string[]) => async (call: MemberCall, next: Next) => {
  log.push(`billing: ${call.name}`);
  return next();
};

export async function createFrontApp(log: string[] = []): Promise<{ front: App; billing: App }> {
  const billing = await createApp({ name: 'billing', version: '1.0.0', tools: [InvoiceTools], middleware: [audit(log)] });
  const front = await createApp({
    name: 'front-desk',
    version: '1.0.0',
    tools: [SupportTools],
    mount: [{ app: billing, namespace: 'billing' }],
  });
  return { front, billing };
}
// #endregion mount
