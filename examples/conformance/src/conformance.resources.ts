import { Param, Resource } from '@toolwright/core';
import { PNG } from './media';

/** Every resource fixture of the conformance suite. */
export class ConformanceResources {
  @Resource('test://static-text', { name: 'static_text', description: 'A static text resource', mimeType: 'text/plain' })
  staticText() {
    return 'This is the content of the static text resource.';
  }

  @Resource('test://static-binary', { name: 'static_binary', description: 'A static binary resource (a PNG)', mimeType: 'image/png' })
  staticBinary() {
    return PNG;
  }

  @Resource('test://watched-resource', { name: 'watched_resource', description: 'A resource clients can subscribe to', mimeType: 'text/plain' })
  watched() {
    return 'This resource can be watched for changes.';
  }

  @Resource('test://template/{id}/data', { name: 'template_data', description: 'Data for an id', mimeType: 'application/json' })
  templateData(@Param('id', { description: 'Any id' }) id: string) {
    return { id, templateTest: true, data: `Data for ID: ${id}` };
  }
}
