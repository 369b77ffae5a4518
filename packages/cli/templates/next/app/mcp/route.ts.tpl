import { mcp } from '../../src/mcp';

// The MCP endpoint at /mcp: both protocol eras, through @toolwright/next. PUT, PATCH and OPTIONS
// get its 405 with Allow (or, with cors, OPTIONS its preflight) rather than Next's bare answers.
export const { GET, POST, DELETE, PUT, PATCH, OPTIONS } = mcp;
export const dynamic = 'force-dynamic';
