export { AccountTools } from '../errors/tool-errors';
