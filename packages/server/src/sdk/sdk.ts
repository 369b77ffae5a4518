/**
 * The SDK (`@modelcontextprotocol/server`) as the rest of this package sees it: the types
 * and values other folders use, named here so every import of the SDK stays in `sdk/`.
 */
export { LATEST_PROTOCOL_VERSION, Server, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
export type {
  AuthInfo as SdkAuthInfo,
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  LoggingLevel,
  Root,
  InputRequest,
  Implementation,
  JSONRPCMessage,
  JSONRPCRequest,
  MessageExtraInfo,
  RequestId,
  ServerCapabilities,
  ServerContext,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/server';
