# Installs the SARIF 2.1.0 schema and a JSON-schema validator into PREFIX once: Microsoft's npm package
# @microsoft/jest-sarif ships the published schema (lib/schemas/sarif-2.1.0-rtm.5.json) and depends on ajv 6 (JSON
# Schema draft-07), which tests/app/cli/sarif_validate.js runs. A failure (no npm, no registry) is a warning here
# and a failure of the app test "check: SARIF validates against the SARIF 2.1.0 schema".
if(EXISTS "${PREFIX}/node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json"
   AND EXISTS "${PREFIX}/node_modules/ajv/package.json")
  return()
endif()
find_program(NPM npm)
if(NOT NPM)
  message(WARNING "npm not found: the SARIF schema test will fail (tools/bootstrap.sh test installs npm)")
  return()
endif()
file(MAKE_DIRECTORY "${PREFIX}")
execute_process(COMMAND ${NPM} install --silent --no-audit --no-fund --prefix "${PREFIX}"
                        @microsoft/jest-sarif@1.0.0-beta.0 ajv@6
                RESULT_VARIABLE rc TIMEOUT 600)
if(NOT rc EQUAL 0)
  message(WARNING "npm install @microsoft/jest-sarif ajv failed (${rc}): the SARIF schema test will fail")
endif()
