// Icons' files at the addresses `svg_url` gives: SVG at /svg/{prefix}/{name}.svg and PNG at
// /png/{prefix}/{name}.png?size=, customized (customize.ts), for <img> tags and CDNs; and every
// icon's public preview at the address `preview_url` gives (preview.ts). An <img>
// sends no key, so a file request needs none: without one it is counted as anonymous, per
// client address. Who may fetch which file is the resolvers' rule (Query.iconFile): this
// plugin runs the named operation through the served schema's envelope, as the REST routes do,
// and never reads the database itself. Free icons' data is kept for cacheSeconds; finished
// bytes (compressed SVGs, PNGs) are kept by content, so a premium file is never served from
// another caller's answer without its own check.
import { isAbsolute, resolve } from 'node:path';
import type { DocumentNode, ExecutionResult, GraphQLError } from 'graphql';
import { ConfigError } from '../../../lib/config-validation.ts';
import { PROJECT_ROOT } from '../../../lib/project-root.ts';
import type { Exchange, GatewayResponse } from '../../pipeline/exchange.ts';
import { operationEnvelope, type OperationEnvelope } from '../../pipeline/operation-envelope.ts';
import type { GatewayPlugin, PluginFactory } from '../../pipeline/plugin.ts';
import { errorResponse, methodNotAllowed, READ_METHODS } from '../../pipeline/responses.ts';
import { parsePluginOptions } from '../options.ts';
import { sharedOperations } from '../rest-routes/operations.ts';
import { CustomizationError } from './customize.ts';
import { describeIconFiles } from './description.ts';
import { iconFileCaches } from './file-caches.ts';
import { customizationOf, fileRequestOf, fileVariables, type FileRequest, type IconFileData } from './file-request.ts';
import { pngResponse, svgResponse } from './file-responses.ts';
import { iconFilesOptions } from './options.ts';
import { iconPreviews } from './preview.ts';

export const useIconFiles: PluginFactory = (rawOptions, services, where): GatewayPlugin => {
  const options = parsePluginOptions(iconFilesOptions, rawOptions, where);
  const operationsDir = isAbsolute(options.operations) ? options.operations : resolve(PROJECT_ROOT, options.operations);
  const operations = sharedOperations(operationsDir, services.keep);
  const document: DocumentNode = operations.document(options.operation);
  const FILE = Symbol('icon-files: the file a request names');
  const routes = { svg: `${options.svgPath}/{prefix}/{name}.svg`, png: `${options.pngPath}/{prefix}/{name}.png` };
  let enveloped: OperationEnvelope | undefined;
  const previews = iconPreviews(options, services, { document, name: options.operation }, () => enveloped);
  const caches = iconFileCaches(options, document, services.keep);

  async function run(exchange: Exchange, file: FileRequest): Promise<ExecutionResult> {
    if (!enveloped) throw new Error('icon-files is not bound to a schema yet');
    const { schema, contextValue, execute } = await enveloped(exchange.carrier);
    return (await execute({ schema, document, variableValues: fileVariables(exchange, file), contextValue, operationName: options.operation })) as ExecutionResult;
  }

  /** The icon's data: from the cache of free icons, else from the operation (a GraphQL error as its response). */
  async function iconFile(exchange: Exchange, file: FileRequest): Promise<IconFileData | GatewayResponse> {
    const signed = exchange.query.has('signature') || exchange.query.has('expires');
    const key = `${file.prefix}/${file.name}`;
    const kept = signed ? undefined : caches.freeFiles.get(key);
    if (kept) {
      exchange.responseHeaders['x-cache'] = 'HIT';
      return kept;
    }
    const result = await run(exchange, file);
    if (result.errors?.length) return services.errors.fromGraphQL(result.errors as GraphQLError[], exchange);
    const data = (result.data as { iconFile: IconFileData }).iconFile;
    exchange.responseHeaders['x-cache'] = 'MISS';
    if (!data.premium && !signed && options.cacheSeconds > 0 && options.dataCacheMaxBytes > 0) caches.freeFiles.set(key, data);
    return data;
  }

  async function answer(exchange: Exchange, file: FileRequest): Promise<GatewayResponse> {
    let asked;
    try {
      asked = customizationOf(file, exchange.query, options);
    } catch (error) {
      if (error instanceof CustomizationError) return errorResponse(400, error.message);
      throw error;
    }
    const data = await iconFile(exchange, file);
    if ('status' in data) return data;
    return file.format === 'svg' ? svgResponse(exchange, data, asked.customization, options, caches) : pngResponse(exchange, data, asked, options, caches);
  }

  return {
    name: 'icon-files',
    stages: {
      route(exchange) {
        if (previews.claim(exchange)) return methodNotAllowed(exchange, READ_METHODS);
        const file = fileRequestOf(exchange.path, options);
        if (!file) return undefined;
        exchange.destination = { kind: 'file', route: routes[file.format], keyOptional: true };
        exchange[FILE] = file;
        return methodNotAllowed(exchange, READ_METHODS);
      },
      // Synchronous for every request that is not a file's (the REST routes' cache hits stay so).
      handle(exchange) {
        const file = exchange[FILE] as FileRequest | undefined;
        return file ? answer(exchange, file) : previews.handle(exchange);
      },
    },
    describes: describeIconFiles(options, { ...routes, preview: previews.route }),
    bind(served) {
      const { schema } = served();
      const problems = operations.validate(schema, document);
      if (problems.length) throw new ConfigError(`operation ${options.operation} does not fit the schema: ${problems.map((problem) => problem.message).join('; ')}`);
      enveloped = operationEnvelope(served);
    },
    watches: [operationsDir],
  };
};
