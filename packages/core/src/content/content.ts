import type { AudioContent, ContentAnnotations, EmbeddedResourceContent, ImageContent, ResourceLinkContent, TextContent } from './ToolResult';

/** Binary data for image/audio/blob helpers: a Buffer/Uint8Array (encoded for you) or a base64 string. */
export type BinaryData = Uint8Array | string;

function base64(data: BinaryData): string {
  return typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
}

function annotated<T extends object>(block: T, annotations?: ContentAnnotations): T {
  return annotations ? { ...block, annotations } : block;
}

/** A text block. */
export function text(value: string, annotations?: ContentAnnotations): TextContent {
  return annotated({ type: 'text', text: value }, annotations);
}

/** An image block, e.g. `image(pngBuffer, 'image/png')`. */
export function image(data: BinaryData, mimeType: string, annotations?: ContentAnnotations): ImageContent {
  return annotated({ type: 'image', data: base64(data), mimeType }, annotations);
}

/** An audio block, e.g. `audio(wavBuffer, 'audio/wav')`. */
export function audio(data: BinaryData, mimeType: string, annotations?: ContentAnnotations): AudioContent {
  return annotated({ type: 'audio', data: base64(data), mimeType }, annotations);
}

/** A link to a resource the client may read or subscribe to. */
export function resourceLink(link: Omit<ResourceLinkContent, 'type'>): ResourceLinkContent {
  return { type: 'resource_link', ...link };
}

/** A resource embedded in the result: text, or binary data (sent as a base64 blob). */
export function embeddedResource(resource: { uri: string; mimeType?: string } & ({ text: string } | { blob: BinaryData }), annotations?: ContentAnnotations): EmbeddedResourceContent {
  const inner = 'text' in resource ? { ...resource } : { uri: resource.uri, mimeType: resource.mimeType, blob: base64(resource.blob) };
  if (inner.mimeType === undefined) delete inner.mimeType;
  return annotated({ type: 'resource', resource: inner }, annotations);
}
