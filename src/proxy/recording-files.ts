import { readFile } from 'node:fs/promises';
import { parseRecording, RecordingFormatError, type RecordingLine } from './recording-format.js';

/** Files larger than this are refused (a recording rotates at 64 MiB by default). */
const MAX_FILE_BYTES = 1024 * 1024 * 1024;

/** The lines of one or more recording files, in the order given (oldest rotated file first). */
export async function readRecordings(files: readonly string[]): Promise<RecordingLine[]> {
  const lines: RecordingLine[] = [];
  for (const file of files) {
    let text: string;
    try {
      const bytes = await readFile(file);
      if (bytes.length > MAX_FILE_BYTES)
        throw new RecordingFormatError(`${file}: over 1 GiB; give the rotated files one by one`);
      text = bytes.toString('utf8');
    } catch (error) {
      if (error instanceof RecordingFormatError) throw error;
      throw new RecordingFormatError(`could not read the recording ${file}: ${(error as Error).message}`);
    }
    lines.push(...parseRecording(text, file));
  }
  if (lines.length === 0) throw new RecordingFormatError(`${files.join(', ')}: no recording lines`);
  return lines;
}
