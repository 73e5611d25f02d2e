// Copies what tsc does not: node and credential icons, and codex (.json) files, beside the compiled code.
const { src, dest, task } = require('gulp');

function copyAssets() {
	return src(['nodes/**/*.{svg,png,json}', 'credentials/**/*.{svg,png}'], { base: '.', encoding: false }).pipe(dest('dist'));
}

task('build:assets', copyAssets);
