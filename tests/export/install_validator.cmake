# Installs the Khronos glTF validator (npm package gltf-validator) into PREFIX once. A failure (no npm, no
# registry) is a warning here and a failure of export_tests, which need the validator.
if(EXISTS "${PREFIX}/node_modules/gltf-validator/package.json")
  return()
endif()
find_program(NPM npm)
if(NOT NPM)
  message(WARNING "npm not found: export_tests will fail (tools/bootstrap.sh test installs npm)")
  return()
endif()
file(MAKE_DIRECTORY "${PREFIX}")
execute_process(COMMAND ${NPM} install --silent --no-audit --no-fund --prefix "${PREFIX}" gltf-validator
                RESULT_VARIABLE rc TIMEOUT 600)
if(NOT rc EQUAL 0)
  message(WARNING "npm install gltf-validator failed (${rc}): export_tests will fail (tools/bootstrap.sh test installs npm)")
endif()
