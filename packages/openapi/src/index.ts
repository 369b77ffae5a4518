export { fromOpenApi } from './fromOpenApi';
export type { OpenApiTools } from './fromOpenApi';
export type { FromOpenApiOptions, OpenApiAuth, OpenApiRoute, OpenApiSecret, OAuthClientCredentials, RouteMap } from './FromOpenApiOptions';
export type { OpenApiOperation, ArgumentPlacement, SkippedOperation } from './OpenApiOperation';
