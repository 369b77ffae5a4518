/**
 * The SDK (`@modelcontextprotocol/server`) as the rest of this package sees it: the types
 * and values other folders use, named here so every import of the SDK stays in `sdk/`.
 * Only public exports of the SDK's entry points are named: no private path.
 */
export {
  BAGGAGE_META_KEY,
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  createMcpHandler,
  inputRequired,
  isSpecType,
  LATEST_PROTOCOL_VERSION,
  LOG_LEVEL_META_KEY,
  parseJSONRPCMessage,
  PROTOCOL_VERSION_META_KEY,
  Server,
  SUPPORTED_PROTOCOL_VERSIONS,
  TRACEPARENT_META_KEY,
  TRACESTATE_META_KEY,
} from '@modelcontextprotocol/server';
export type {
  AuthInfo as SdkAuthInfo,
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  Implementation,
  InputRequest,
  JSONRPCMessage,
  JSONRPCRequest,
  ListRootsResult,
  LoggingLevel,
  MessageExtraInfo,
  Notification,
  Prompt,
  RequestId,
  Resource,
  ResourceTemplateType,
  Result,
  Root,
  ServerCapabilities,
  ServerContext,
  ServerOptions,
  Tool,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/server';
