# Installs the Khronos glTF validator (npm package gltf-validator) into PREFIX once. A failure (no npm, no
# network) is only a warning: the export tests then skip validation with a message.
if(EXISTS "${PREFIX}/node_modules/gltf-validator/package.json")
  return()
endif()
find_program(NPM npm)
if(NOT NPM)
  message(WARNING "npm not found: glTF validation in export_tests will be skipped")
  return()
endif()
file(MAKE_DIRECTORY "${PREFIX}")
execute_process(COMMAND ${NPM} install --silent --no-audit --no-fund --prefix "${PREFIX}" gltf-validator
                RESULT_VARIABLE rc TIMEOUT 600)
if(NOT rc EQUAL 0)
  message(WARNING "npm install gltf-validator failed (${rc}): glTF validation in export_tests will be skipped")
endif()
