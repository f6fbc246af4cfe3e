# `cpack -G DEB` in the build folder (or `cmake --build build --target package`) makes rigscope_VERSION_ARCH.deb
# from what `cmake --install` installs, under /usr. Depends is worked out from the binaries by dpkg-shlibdeps
# (package dpkg-dev); the pre-build script adds what Debian policy asks of a package (compressed man pages and
# changelog, the copyright file).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME rigscope)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "rigscope developers <dev@rigscope.invalid>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
    WORLD_READ WORLD_EXECUTE)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS OFF)
set(CPACK_DEBIAN_PACKAGE_SECTION graphics)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/rigscope/rigscope")
# dpkg-shlibdeps finds Qt's and Mesa's libraries; the Qt platform plugins and software OpenGL are loaded at run time,
# so they are named here (the same run-time packages tools/bootstrap.sh installs).
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins, libgl1-mesa-dri")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "viewer for the 3D models and animations of classic games")
# CPack puts the summary first and indents each line of the description below it; an empty line becomes " .".
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "rigscope opens the models and animations of Petroglyph's Alamo engine
(Empire at War, Forces of Corruption), Westwood/EA W3D (Renegade, Generals,
Battle for Middle-earth), Lionhead's Black & White 2 and AMOS AMAL banks, also
from game installs, mod folders and .meg/.big archives. It plays clips on a
timeline, shows bones and materials, switches LOD and damage variants and
faction colours, takes screenshots and exports glTF 2.0.

The package holds the viewer (rigscope), a command-line tool (rigscope-cli)
and a thumbnailer for file managers.")
set(CPACK_PRE_BUILD_SCRIPTS ${CMAKE_CURRENT_LIST_DIR}/deb_prebuild.cmake)
set(RIGSCOPE_PACKAGING_DIR ${CMAKE_CURRENT_LIST_DIR})
set(CPACK_RIGSCOPE_PACKAGING_DIR ${CMAKE_CURRENT_LIST_DIR})
include(CPack)
