// `catalogue_state.order_version` moves whenever the `popular` or `downloads` order can have
// changed outside an import (which moves `version`): download folds and expiries, and the
// refresh of the concept prior after an import. The list index (resolvers/catalogue/list-index)
// serves a page of those orders only at the order version it was built at.

/**
 * A CTE that moves `catalogue_state.order_version` when the statement's CTE `updated` changed any
 * icon: in the same statement, so the new orders and the new version commit together.
 */
export const ordersMovedCte = (updated: string) =>
  `orders_moved AS (UPDATE catalogue_state SET order_version = order_version + 1 WHERE id = 1 AND EXISTS (SELECT 1 FROM ${updated}))`;
