// A DataLoader shared by every request on one database: what concurrent requests ask for while
// the event loop handles one batch of sockets is read in one statement. Requests parsed together
// reach their loads before setImmediate's callbacks run, so one batch per turn of the loop; a
// load made alone is dispatched on the same turn, as one statement. No cache: the loader lives as
// long as its database, so every load is read when asked.
import DataLoader from 'dataloader';

export function sharedLoader<K, V>(batch: DataLoader.BatchLoadFn<K, V>, maxBatchSize: number): DataLoader<K, V> {
  return new DataLoader<K, V>(batch, { cache: false, maxBatchSize, batchScheduleFn: (dispatch) => setImmediate(dispatch) });
}
