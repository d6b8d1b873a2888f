// Import progress for a person at a terminal: one line, rewritten in place, with sets done and
// files cleaned (a folder source) or icons written per second; without a terminal, one line per
// set so logs stay readable.
import type { ImportEvent, ImportSummary } from './import-sets.ts';

const number = new Intl.NumberFormat('en-US');

export function createProgressReporter(tty: NodeJS.WriteStream | undefined, log: (line: string) => void) {
  let setsDone = 0;
  let setsTotal = 0;
  let stage = '';
  let stageStarted = performance.now();
  let lastDraw = 0;
  return (event: ImportEvent) => {
    if (event.type === 'set-start') {
      setsTotal = event.total;
      stage = '';
    } else if (event.type === 'progress' && tty) {
      const now = performance.now();
      if (event.stage !== stage) {
        stage = event.stage;
        stageStarted = now;
      } else if (now - lastDraw < 100 && event.iconsDone < event.iconsTotal) return;
      lastDraw = now;
      const rate = event.iconsDone / Math.max((now - stageStarted) / 1000, 0.001);
      const what = event.stage === 'clean' ? 'files cleaned' : 'icons';
      const unit = event.stage === 'clean' ? 'files/s' : 'icons/s';
      tty.write(
        `\r\x1b[K[${setsDone}/${setsTotal} sets] ${event.prefix}: ${number.format(event.iconsDone)}/${number.format(event.iconsTotal)} ${what}, ${number.format(Math.round(rate))} ${unit}`,
      );
    } else if (event.type === 'set-done') {
      setsDone++;
      const { result } = event;
      if (tty) tty.write('\r\x1b[K');
      const seconds = result.milliseconds / 1000;
      log(
        `[${setsDone}/${setsTotal}] ${result.prefix}: ` +
          (result.status === 'unchanged'
            ? `unchanged (${number.format(result.icons)} icons)`
            : result.status === 'planned'
              ? `read: ${number.format(result.icons)} icons, ${seconds.toFixed(1)} s (dry run)`
              : result.status !== 'imported'
                ? `not written (${result.status === 'empty' ? 'no icon to import' : 'files rejected under --strict'})`
                : `${number.format(result.icons)} icons, ${number.format(result.iconsWritten)} rows written, ${seconds.toFixed(1)} s` +
              (result.unpublished ? `, ${result.unpublished} unpublished` : '') +
              (result.brokenAliases ? `, ${result.brokenAliases} aliases with a broken or circular chain left out` : '')),
      );
    }
  };
}

export function formatSummary(summary: ImportSummary): string {
  const imported = summary.sets.filter((set) => set.status === 'imported').length;
  const seconds = summary.milliseconds / 1000;
  return (
    `Done: ${summary.sets.length} sets (${imported} imported, ${summary.sets.length - imported} unchanged), ` +
    `${number.format(summary.icons)} published icons, ${number.format(summary.iconsWritten)} icon rows written ` +
    `in ${seconds.toFixed(1)} s (${number.format(Math.round(summary.iconsWritten / Math.max(seconds, 0.001)))} rows/s).` +
    (summary.searchDataRefreshed && imported === 0 ? ' Search data rebuilt: an earlier import stopped before it was.' : '')
  );
}
