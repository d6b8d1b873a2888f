/** Whether this process runs on glibc (the C library whose allocator gateway/front/allocator-trim.ts trims). */
export const onGlibc = process.platform === 'linux' && Boolean((process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime);
