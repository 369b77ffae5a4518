import { deferAjvProvider } from './deferAjvProvider';
import { deferZodLocales } from './deferZodLocales';

/*
 * Importing this module keeps the SDK from loading, at every start, code a Toolwright server
 * does not run: the SDK's Ajv provider and zod's translations, both loaded on first use
 * instead. Every entry point that loads the SDK imports it first; once the SDK is loaded it
 * changes nothing.
 */
deferAjvProvider();
deferZodLocales();
