# Packaging: how Beamscope is laid out when installed, and the .deb that carries it.
#   - data files (GPU presets) copied into <build>/share/beamscope, where the executables find
#     them relative to themselves as they do when installed (core/util/InstallLayout.h)
#   - install rules (GNUInstallDirs): the three executables, the data files, the Halide runtime
#     of the wheel (libHalide, its autoscheduler plugins, headers, licence) in a private library
#     directory reached through an $ORIGIN-relative RUNPATH, so no virtual environment is needed
#   - desktop integration: .desktop file, hicolor SVG icon, AppStream metainfo, man pages made
#     from --help by help2man
#   - CPack DEB (Debian dependencies from dpkg-shlibdeps) and the `deb` target that builds only
#     what the package holds, then runs cpack
include(GNUInstallDirs)

set(BEAMSCOPE_APP_ID "io.github.beamscope.beamscope")
set(BEAMSCOPE_PROJECT_URL "https://github.com/beamscope/beamscope" CACHE STRING
    "Beamscope's home page (AppStream metainfo, package homepage)")
set(BEAMSCOPE_SCREENSHOT_URL
    "https://raw.githubusercontent.com/beamscope/beamscope/main/docs/images/main-window.png"
    CACHE STRING "URL of the main-window screenshot (AppStream metainfo)")
set(BEAMSCOPE_PACKAGE_MAINTAINER "The Beamscope developers" CACHE STRING
    "Maintainer field of the .deb")
set(BEAMSCOPE_PRIVATE_LIBDIR "${CMAKE_INSTALL_LIBDIR}/beamscope")
set(BEAMSCOPE_DATADIR "${CMAKE_INSTALL_DATADIR}/beamscope")

# ---- data files, in the build tree and installed ------------------------------------------------
file(GLOB beamscope_gpu_presets CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/resources/gpus/*.json")
foreach(preset IN LISTS beamscope_gpu_presets)
  get_filename_component(preset_name "${preset}" NAME)
  configure_file("${preset}" "${PROJECT_BINARY_DIR}/share/beamscope/gpus/${preset_name}" COPYONLY)
endforeach()
install(FILES ${beamscope_gpu_presets} DESTINATION "${BEAMSCOPE_DATADIR}/gpus")
# The pretrained cost model (docs/pretrained.md) beside them.
file(GLOB beamscope_models CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/resources/models/*.json")
foreach(model IN LISTS beamscope_models)
  get_filename_component(model_name "${model}" NAME)
  configure_file("${model}" "${PROJECT_BINARY_DIR}/share/beamscope/models/${model_name}" COPYONLY)
endforeach()
install(FILES ${beamscope_models} DESTINATION "${BEAMSCOPE_DATADIR}/models")

# ---- executables, with the private Halide runtime beside them -----------------------------------
set(beamscope_installed_programs beamscope-cli beamscope-worker beamscope-aot-runner)
if(BEAMSCOPE_GUI)
  list(APPEND beamscope_installed_programs beamscope)
endif()
file(RELATIVE_PATH beamscope_bin_to_lib "/${CMAKE_INSTALL_BINDIR}" "/${BEAMSCOPE_PRIVATE_LIBDIR}")
set_target_properties(${beamscope_installed_programs} PROPERTIES
  INSTALL_RPATH "$ORIGIN/${beamscope_bin_to_lib}")
install(TARGETS ${beamscope_installed_programs} RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")

# The wheel's layout: lib64/libHalide.so and libautoschedule_*.so, include/, share/doc/Halide.
get_target_property(beamscope_halide_lib Halide::Halide IMPORTED_LOCATION_RELEASE)
if(NOT beamscope_halide_lib)
  get_target_property(beamscope_halide_lib Halide::Halide IMPORTED_LOCATION)
endif()
get_filename_component(beamscope_halide_libdir "${beamscope_halide_lib}" DIRECTORY)
get_filename_component(beamscope_halide_root "${beamscope_halide_libdir}" DIRECTORY)
file(GLOB beamscope_halide_plugins "${beamscope_halide_libdir}/libautoschedule_*.so")
install(FILES "${beamscope_halide_lib}" ${beamscope_halide_plugins}
        DESTINATION "${BEAMSCOPE_PRIVATE_LIBDIR}"
        PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
# Headers, for generator libraries built against this very Halide (beamscope-cli halide-flags).
install(DIRECTORY "${beamscope_halide_root}/include/" DESTINATION "${BEAMSCOPE_PRIVATE_LIBDIR}/include")
install(FILES "${beamscope_halide_root}/share/doc/Halide/LICENSE.txt"
        DESTINATION "${CMAKE_INSTALL_DOCDIR}" RENAME "Halide-LICENSE.txt")
install(FILES "${PROJECT_SOURCE_DIR}/packaging/copyright" DESTINATION "${CMAKE_INSTALL_DOCDIR}")

# ---- desktop integration -------------------------------------------------------------------------
if(BEAMSCOPE_GUI)
  install(FILES "${PROJECT_SOURCE_DIR}/packaging/${BEAMSCOPE_APP_ID}.desktop"
          DESTINATION "${CMAKE_INSTALL_DATADIR}/applications")
  install(FILES "${PROJECT_SOURCE_DIR}/packaging/${BEAMSCOPE_APP_ID}.svg"
          DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps")
  configure_file("${PROJECT_SOURCE_DIR}/packaging/${BEAMSCOPE_APP_ID}.metainfo.xml.in"
                 "${PROJECT_BINARY_DIR}/packaging/${BEAMSCOPE_APP_ID}.metainfo.xml" @ONLY)
  install(FILES "${PROJECT_BINARY_DIR}/packaging/${BEAMSCOPE_APP_ID}.metainfo.xml"
          DESTINATION "${CMAKE_INSTALL_DATADIR}/metainfo")
endif()

# Man pages from --help (the CLI's --help-all, every subcommand), by help2man (Debian's help2man).
find_program(BEAMSCOPE_HELP2MAN help2man)
set(beamscope_man_pages)
if(BEAMSCOPE_HELP2MAN)
  function(beamscope_man_page target section_name help_option)
    set(page "${PROJECT_BINARY_DIR}/man/${target}.1")
    add_custom_command(
      OUTPUT "${page}" "${page}.gz"
      COMMAND "${CMAKE_COMMAND}" -E make_directory "${PROJECT_BINARY_DIR}/man"
      COMMAND "${BEAMSCOPE_HELP2MAN}" --no-info --no-discard-stderr "--name=${section_name}"
              "--help-option=${help_option}" --version-option=--version "--output=${page}"
              "$<TARGET_FILE:${target}>"
      COMMAND gzip -n -9 -f -k "${page}"
      DEPENDS ${target}
      COMMENT "Man page ${target}.1 from ${target} ${help_option}"
      VERBATIM)
    set(beamscope_man_pages ${beamscope_man_pages} "${page}.gz" PARENT_SCOPE)
  endfunction()
  beamscope_man_page(beamscope-cli "explore GPU schedules of Halide pipelines, headless" --help-all)
  if(BEAMSCOPE_GUI)
    beamscope_man_page(beamscope "watch and steer the GPU autoscheduling beam search of Halide pipelines" --help)
  endif()
  add_custom_target(beamscope_man ALL DEPENDS ${beamscope_man_pages})
  install(FILES ${beamscope_man_pages} DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
else()
  message(STATUS "Beamscope: help2man not found: no man pages (packaging/install-deps.sh installs it)")
endif()

# ---- CPack DEB ---------------------------------------------------------------------------------
# `install` and cpack do not build the whole tree (tests, benchmarks) first: the `deb` target
# below builds what the package holds.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "beamscope")
set(CPACK_PACKAGE_VENDOR "The Beamscope developers")
set(CPACK_PACKAGE_CONTACT "${BEAMSCOPE_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "explore, steer and benchmark GPU schedules of Halide pipelines")
set(CPACK_PACKAGE_DESCRIPTION
    "Beamscope loads a Halide pipeline, shows its Func DAG and the loop nest of any schedule, and drives the GPU autoscheduling beam search of Anderson et al. 2021 one decision at a time. It benchmarks schedules on the local CUDA or OpenCL device, autotunes with a learned cost model and exports the chosen schedule as Halide C++. Includes the Halide 21 runtime it was built with, in a private directory.")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_CHECKSUM "")
set(CPACK_DEBIAN_FILE_NAME "DEB-DEFAULT")
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${BEAMSCOPE_PROJECT_URL}")
set(CPACK_DEBIAN_COMPRESSION_TYPE "gzip")
# Dependencies of every ELF file from dpkg-shlibdeps; the private Halide libraries are found in
# the package through their $ORIGIN RUNPATH. What is loaded at run time without being linked:
# Qt's platform plugins, the OpenCL ICD loader (dlopen) and an OpenCL driver (PoCL on a CPU).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "ocl-icd-libopencl1 | libopencl1")
if(BEAMSCOPE_GUI)
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", qt6-qpa-plugins")
endif()
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "pocl-opencl-icd | opencl-icd")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "g++")
include(CPack)

add_custom_target(deb
  COMMAND "${CMAKE_CPACK_COMMAND}" -G DEB --config "${PROJECT_BINARY_DIR}/CPackConfig.cmake"
  WORKING_DIRECTORY "${PROJECT_BINARY_DIR}"
  COMMENT "Packaging beamscope_${PROJECT_VERSION}_*.deb"
  VERBATIM)
add_dependencies(deb ${beamscope_installed_programs})
if(TARGET beamscope_man)
  add_dependencies(deb beamscope_man)
endif()
