import { mcp } from '../../src/mcp';

// The MCP endpoint at /mcp: both protocol eras, through @toolwright/next.
export const { GET, POST, DELETE } = mcp;
export const dynamic = 'force-dynamic';
