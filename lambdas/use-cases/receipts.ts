import { SECRET_ID_PATTERN } from '#contract/limits';
import { OPEN_REQUEST, receiptAnswersAt, receiptOf, stateOfHead, type Receipt } from '../rules/receipt';
import { readHeadAndReceipt } from '../store/receipt-store';

export type { Receipt };

/**
 * The receipt of secret `id` for the key whose hash is `owner`: read off the head while it is
 * stored, else off the receipt item the stream consumer kept when the head went. undefined for
 * any other key and any id that has no answering receipt alike, so that a stranger learns
 * nothing, not even that the id exists. Uses no view.
 */
export async function secretStatus(id: string, owner: string, now: number): Promise<Receipt | undefined> {
  if (!SECRET_ID_PATTERN.test(id)) return undefined;
  const { head, receipt } = await readHeadAndReceipt(id);
  // A head outranks a receipt item: only a create undone after its head was written leaves both.
  // A secret request not answered yet is no secret: its requester asks GET /requests/{id}/status.
  if (head) {
    const answers = head.owner === owner && head.requestState !== OPEN_REQUEST && receiptAnswersAt(head.expires, now);
    return answers ? receiptOf(head, stateOfHead(head, now)) : undefined;
  }
  if (receipt && receipt.owner === owner && receiptAnswersAt(receipt.expires, now)) return receiptOf(receipt, receipt.state);
  return undefined;
}
