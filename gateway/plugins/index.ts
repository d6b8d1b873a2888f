// The gateway's plugins by the name .meshrc.yaml lists them under (gateway/gateway.ts builds
// them in the listed order).
import type { PluginFactory } from '../pipeline/plugin.ts';
import { useAccountPortal } from './account-portal/index.ts';
import { useApiKeyAuth } from './api-key-auth/index.ts';
import { useAuthThrottle } from './auth-throttle/index.ts';
import { useCatalogueContext } from './catalogue-context/index.ts';
import { useCors } from './cors/index.ts';
import { useDownloadCounts } from './download-counts/index.ts';
import { useErrorShaping } from './error-shaping/index.ts';
import { useGraphqlCache } from './graphql-cache/index.ts';
import { useIconFiles } from './icon-files/index.ts';
import { useIconifyProtocol } from './iconify-protocol/index.ts';
import { useObservability } from './observability/index.ts';
import { useRateLimit } from './rate-limit/index.ts';
import { useRestRoutes } from './rest-routes/index.ts';
import { useWebPages } from './web-pages/index.ts';

export const PLUGIN_FACTORIES: Readonly<Record<string, PluginFactory>> = {
  observability: useObservability,
  cors: useCors,
  'catalogue-context': useCatalogueContext,
  'error-shaping': useErrorShaping,
  'auth-throttle': useAuthThrottle,
  'api-key-auth': useApiKeyAuth,
  'rate-limit': useRateLimit,
  'graphql-cache': useGraphqlCache,
  'icon-files': useIconFiles,
  'iconify-protocol': useIconifyProtocol,
  'rest-routes': useRestRoutes,
  'download-counts': useDownloadCounts,
  'web-pages': useWebPages,
  'account-portal': useAccountPortal,
};
