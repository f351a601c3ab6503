import type { SlackDeps } from '../../deps.js';
import { ACTIONS, EXPENSE_ACTIONS, LEDGER_ACTIONS } from '../../ids.js';
import type { ListenerTable } from '../table.js';
import { connectClicked } from './connect.js';
import { digestPauseClicked } from './digest-pause.js';
import { commentClicked } from './expense-comment.js';
import { deleteClicked } from './expense-delete.js';
import { detailsClicked } from './expense-details.js';
import { editClicked } from './expense-edit.js';
import { restoreClicked } from './expense-restore.js';
import { groupDeleteClicked } from './group-delete.js';
import {
  currencyChosen,
  defaultGroupChosen,
  digestHourChosen,
  digestResumed,
  digestToggled,
  disconnectClicked,
  homeRefreshed,
} from './home-settings.js';
import { digestSettleUpClicked, settleCancelled, settleUpClicked } from './settle-up.js';
import { undoClicked } from './undo.js';

export function registerActions(table: ListenerTable, deps: SlackDeps): void {
  table.action(ACTIONS.connect, connectClicked);
  table.action(ACTIONS.undo, undoClicked(deps));
  table.action(EXPENSE_ACTIONS.edit, editClicked(deps));
  table.action(EXPENSE_ACTIONS.delete, deleteClicked(deps));
  table.action(EXPENSE_ACTIONS.restore, restoreClicked(deps));
  table.action(EXPENSE_ACTIONS.comment, commentClicked);
  table.action(EXPENSE_ACTIONS.details, detailsClicked(deps));
  table.action(LEDGER_ACTIONS.settleUp, settleUpClicked(deps));
  table.action(LEDGER_ACTIONS.settleConfirm, settleUpClicked(deps));
  table.action(LEDGER_ACTIONS.settleCancel, settleCancelled);
  table.action(LEDGER_ACTIONS.digestSettleUp, digestSettleUpClicked(deps));
  table.action(LEDGER_ACTIONS.digestPause, digestPauseClicked(deps));
  table.action(LEDGER_ACTIONS.groupDelete, groupDeleteClicked(deps));
  table.action(LEDGER_ACTIONS.homeDisconnect, disconnectClicked(deps));
  table.action(LEDGER_ACTIONS.homeDigestToggle, digestToggled(deps));
  table.action(LEDGER_ACTIONS.homeDigestResume, digestResumed(deps));
  table.action(LEDGER_ACTIONS.homeDigestHour, digestHourChosen(deps));
  table.action(LEDGER_ACTIONS.homeCurrency, currencyChosen(deps));
  table.action(LEDGER_ACTIONS.homeDefaultGroup, defaultGroupChosen(deps));
  table.action(LEDGER_ACTIONS.homeRefresh, homeRefreshed(deps));
}
