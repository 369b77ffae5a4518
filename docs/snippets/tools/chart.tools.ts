import { embeddedResource, image, Param, resourceLink, text, Tool } from '@toolwright/core';

/** A 1x1 PNG, standing in for a rendered chart. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

// #region results
export class ReportTools {
  @Tool({ description: 'Count the words in a text.' })
  countWords(@Param('text') input: string) {
    return input.split(/\s+/).filter(Boolean).length; // -> text "3"
  }

  @Tool({ description: 'Summarize sales as JSON.' })
  salesSummary() {
    return { total: 1280, currency: 'EUR' }; // -> text '{"total":1280,"currency":"EUR"}'
  }

  @Tool({ description: 'Draw the sales chart.' })
  salesChart() {
    return [text('Sales, last 7 days'), image(PNG, 'image/png')]; // -> two content blocks
  }

  @Tool({ description: 'Link to the full sales report.' })
  salesReport() {
    return {
      content: [
        resourceLink({ uri: 'reports://sales/2026-11', name: 'sales-2026-11', mimeType: 'text/csv' }),
        embeddedResource({ uri: 'reports://sales/2026-11/summary', mimeType: 'text/plain', text: 'Total: 1280 EUR' }),
      ],
    }; // -> a complete result, sent as is
  }
}
// #endregion results
