// Per-request batching state, created on first use and kept for the life of one context
// object, so every gateway or test that builds a context gets batching without knowing of it.
import type { IconDetail } from './catalogue/icon-detail.ts';
import { createIconLoaders, type IconLoaders } from './catalogue/icon-records.ts';
import { createSetLoaders, type SetLoaders } from './catalogue/icon-sets.ts';
import type { CatalogueContext } from './context.ts';
import { createOwnershipLoader, type OwnershipLoader } from './entitlements.ts';

interface RequestState extends IconLoaders, SetLoaders {
  ownership: OwnershipLoader;
}

const states = new WeakMap<CatalogueContext, RequestState>();

export function requestState(context: CatalogueContext): RequestState {
  let state = states.get(context);
  if (!state) {
    state = { ...createIconLoaders(context.reads), ...createSetLoaders(context.reads), ownership: createOwnershipLoader(context.reads, context.viewer) };
    states.set(context, state);
  }
  return state;
}

/** Hands a single icon's parts, read in one statement, to the loaders its fields resolve through. */
export function primeIconDetail(context: CatalogueContext, { icon, tags, owned, body }: IconDetail): void {
  const state = requestState(context);
  state.tags.prime(icon.id, tags);
  state.ownership.prime(icon.id, owned);
  if (body !== null) state.bodies.prime(icon.id, body);
}
