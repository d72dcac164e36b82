import type { LivePosition } from '../../../engine/index';

/** What the positions list gives each dialog that acts on one open position (margin, TP/SL, close). */
export interface PositionDialogProps {
  position: LivePosition;
  onClose: () => void;
  /** The change went through: the list closes the dialog and reads the positions again. */
  onDone: () => void;
}
