/**
 * The terminal's size, following resizes, so every layout is computed from it. A stream that
 * says nothing of its size (a test's) counts as 100×30.
 */
import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

export interface Size {
  columns: number;
  rows: number;
}

export function useScreenSize(): Size {
  const { stdout } = useStdout();
  const read = (): Size => ({ columns: stdout.columns || 100, rows: stdout.rows || 30 });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const resized = () => setSize(read());
    stdout.on('resize', resized);
    return () => {
      stdout.off('resize', resized);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stdout]);
  return size;
}
