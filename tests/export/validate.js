// Runs the Khronos glTF validator (npm package gltf-validator) on one .glb/.gltf and prints one JSON line:
//   {"errors":N,"warnings":N,"infos":N,"messages":[{code,message,pointer,severity}...]}  (errors and warnings only)
// usage: node validate.js VALIDATOR_PREFIX FILE   (VALIDATOR_PREFIX: the --prefix folder of `npm install`)
const path = require('path');
const fs = require('fs');
const validator = require(path.join(process.argv[2], 'node_modules', 'gltf-validator'));
const file = process.argv[3];
const external = (uri) => new Promise((resolve, reject) => {
    try {
        resolve(new Uint8Array(fs.readFileSync(path.join(path.dirname(file), decodeURIComponent(uri)))));
    } catch (e) {
        reject(String(e));
    }
});
validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {maxIssues: 1000, externalResourceFunction: external})
    .then((r) => {
        const i = r.issues;
        const msgs = i.messages.filter((m) => m.severity <= 1)
                         .slice(0, 30)
                         .map((m) => ({code: m.code, message: m.message, pointer: m.pointer, severity: m.severity}));
        console.log(JSON.stringify({errors: i.numErrors, warnings: i.numWarnings, infos: i.numInfos, messages: msgs}));
    })
    .catch((e) => {
        console.log(JSON.stringify({errors: -1, fatal: String(e)}));
    });
