import type { App } from '@slack/bolt';
import type { SlackDeps } from '../../deps.js';
import { ACTIONS, EXPENSE_ACTIONS, LEDGER_ACTIONS } from '../../ids.js';
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

export function registerActions(app: App, deps: SlackDeps): void {
  app.action(ACTIONS.connect, connectClicked);
  app.action(ACTIONS.undo, undoClicked(deps));
  app.action(EXPENSE_ACTIONS.edit, editClicked(deps));
  app.action(EXPENSE_ACTIONS.delete, deleteClicked(deps));
  app.action(EXPENSE_ACTIONS.restore, restoreClicked(deps));
  app.action(EXPENSE_ACTIONS.comment, commentClicked);
  app.action(EXPENSE_ACTIONS.details, detailsClicked(deps));
  app.action(LEDGER_ACTIONS.settleUp, settleUpClicked(deps));
  app.action(LEDGER_ACTIONS.settleConfirm, settleUpClicked(deps));
  app.action(LEDGER_ACTIONS.settleCancel, settleCancelled);
  app.action(LEDGER_ACTIONS.digestSettleUp, digestSettleUpClicked(deps));
  app.action(LEDGER_ACTIONS.digestPause, digestPauseClicked(deps));
  app.action(LEDGER_ACTIONS.groupDelete, groupDeleteClicked(deps));
  app.action(LEDGER_ACTIONS.homeDisconnect, disconnectClicked(deps));
  app.action(LEDGER_ACTIONS.homeDigestToggle, digestToggled(deps));
  app.action(LEDGER_ACTIONS.homeDigestResume, digestResumed(deps));
  app.action(LEDGER_ACTIONS.homeDigestHour, digestHourChosen(deps));
  app.action(LEDGER_ACTIONS.homeCurrency, currencyChosen(deps));
  app.action(LEDGER_ACTIONS.homeDefaultGroup, defaultGroupChosen(deps));
  app.action(LEDGER_ACTIONS.homeRefresh, homeRefreshed(deps));
}
