import { DocumentRefusedError } from './ClientDocumentFetcher';
import { isPublicAddress } from './isPublicAddress';

/**
 * The addresses `hostname` resolves to through `resolve`, every one of them public. Refuses
 * (`DocumentRefusedError`) a host that does not resolve, or that resolves to a loopback,
 * private, link-local or reserved address, naming it.
 */
export async function resolvePublicAddresses(hostname: string, resolve: (hostname: string) => Promise<string[]>): Promise<string[]> {
  let addresses: string[];
  try {
    addresses = await resolve(hostname);
  } catch {
    throw new DocumentRefusedError(`the host ${hostname} does not resolve`, 'not-public');
  }
  if (addresses.length === 0) throw new DocumentRefusedError(`the host ${hostname} does not resolve`, 'not-public');
  const refused = addresses.find((address) => !isPublicAddress(address));
  if (refused !== undefined)
    throw new DocumentRefusedError(`the host ${hostname} resolves to ${refused}, which is not a public address (loopback, private, link-local and reserved ones are refused)`, 'not-public');
  return addresses;
}
