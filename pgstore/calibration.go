package pgstore

// maxCalibrationPoints bounds the verdicts the calibration is fitted on: the
// most recent ones, so that it follows the knowledge base as it changes
// (storage's value).
const maxCalibrationPoints = 5000

// calibrationPoint is the SQL condition (over verdict_log v) of a verdict
// the calibration is fitted on, and calibrationHit whether it hit
// (storage's conditions, in PostgreSQL's booleans).
const (
	calibrationPoint = `v.outcome IN ('success', 'failure') AND NOT v.censored AND NOT v.abstained AND v.valence IN ('affirm', 'caution')`
	calibrationHit   = `((v.valence = 'affirm' AND v.outcome = 'success') OR (v.valence = 'caution' AND v.outcome = 'failure'))`
)

// calibrationSeqs selects the seq of every calibration point, those of the
// verdict log and those archived by Prune, newest first.
const calibrationSeqs = `SELECT v.seq FROM verdict_log v WHERE ` + calibrationPoint + `
	UNION ALL SELECT seq FROM calibration_archive ORDER BY 1 DESC`
